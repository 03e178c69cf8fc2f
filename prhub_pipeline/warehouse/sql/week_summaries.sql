-- One line per week of a range: what each stage stored for it.
WITH weeks AS (
    SELECT CAST(unnest(generate_series(CAST($2 AS DATE), CAST($3 AS DATE), INTERVAL 7 DAY)) AS DATE)
        AS week_start
)
SELECT w.week_start,
       (SELECT count(*) FROM prs p WHERE p.repo = $1 AND p.week_start = w.week_start) AS prs,
       (SELECT count(*) FROM pr_scores s
         WHERE s.repo = $1 AND s.week_start = w.week_start AND s.is_key) AS key_prs,
       (SELECT count(*) FROM pr_risks r WHERE r.repo = $1 AND r.week_start = w.week_start) AS risks,
       (SELECT string_agg(lang, ',' ORDER BY lang) FROM weekly_reports r
         WHERE r.repo = $1 AND r.week_start = w.week_start) AS reports
FROM weeks w
ORDER BY w.week_start
