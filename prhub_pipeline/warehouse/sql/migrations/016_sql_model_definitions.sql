-- Which definition made each model's relation: a model changed in a newer prhub stayed the
-- older one's until something refreshed it, and nothing told a SQL user so (verl's
-- weekly_trends, refreshed by a prhub of before its every-week rows: 2078 rows where the
-- shipped model makes 2765). `prhub sql` compares it with the model files it would use.
-- A prhub without this migration refuses the file (a newer schema), so every writer records it.
ALTER TABLE sql_models ADD COLUMN definition_sha256 VARCHAR;
COMMENT ON COLUMN sql_models.definition_sha256 IS 'The sha256 of the SQL that made the relation: its model file''s text as rendered ({{ bot_name(...) }} filled in). NULL for one made before the warehouse recorded it.';
