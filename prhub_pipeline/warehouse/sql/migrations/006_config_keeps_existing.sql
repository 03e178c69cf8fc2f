-- pr_config_files.keeps_existing: the PR left every setting the file had as it was, adding at
-- most whole new list entries, CI jobs or steps after a job's last (a test registered in a
-- workflow's matrix), in a file that runs nothing also new keys and list items, or the file
-- is new. Files compared before this column existed read as false: changed.
ALTER TABLE pr_config_files ADD COLUMN keeps_existing BOOLEAN DEFAULT false;
