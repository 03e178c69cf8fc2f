-- Keep a repository's newest $keep trained classifiers (by training time, then storing time).
DELETE FROM module_models
WHERE repo = $repo
  AND model_version NOT IN (
    SELECT model_version
    FROM module_models
    WHERE repo = $repo
    ORDER BY trained_at DESC, stored_at DESC
    LIMIT $keep
  )
