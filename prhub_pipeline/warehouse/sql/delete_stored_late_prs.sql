-- A week's late PRs that are stored in it now: its report, written from the stored PRs, has
-- them. Those still missing stay, for the schedule to run the week again.
DELETE FROM late_prs
WHERE repo = $repo AND week_start = $week_start
  AND number IN (SELECT number FROM prs WHERE repo = $repo AND week_start = $week_start)
