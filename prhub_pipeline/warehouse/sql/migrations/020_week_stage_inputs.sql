-- What a stage read besides the warehouse when it stored the week: two `prhub materialize`
-- started at once on the same weeks (or one beside a backfill) both read and analysed them,
-- and the later replaced the earlier's rows. The second now waits for the first and skips a
-- week stored whole since it was asked for, but only from the same inputs: a week whose
-- config or clone changed in between runs again. Rows stored before the column hold NULL,
-- which matches no inputs.
ALTER TABLE week_stages ADD COLUMN inputs VARCHAR;
COMMENT ON COLUMN week_stages.inputs IS 'What the stage read besides the warehouse, as a fingerprint: for ingest the repository''s settings and (git source) the commit its branch was at, for the report its settings; NULL for the other stages and for rows stored before the column.';
