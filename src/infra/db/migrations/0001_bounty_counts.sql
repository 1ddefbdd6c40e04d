-- Keeps bounty_counts in step with bounties inside the same transaction as every change.
-- Statement-level triggers with transition tables, so a bulk insert costs one upsert per key.
-- Rows are upserted in key order, so two transactions moving bounties in opposite directions
-- (open -> claimed and claimed -> open) lock the shared '*' rows in the same order and never deadlock.
CREATE FUNCTION bounty_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bounty_counts AS c (scope, status, difficulty, n, reward_sum)
  SELECT s.scope, r.status, r.difficulty, count(*), sum(r.reward_amount)
  FROM new_rows r CROSS JOIN LATERAL (VALUES ('*'), (r.project_id)) AS s(scope)
  GROUP BY s.scope, r.status, r.difficulty
  ORDER BY s.scope, r.status, r.difficulty
  ON CONFLICT (scope, status, difficulty)
  DO UPDATE SET n = c.n + excluded.n, reward_sum = c.reward_sum + excluded.reward_sum;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION bounty_counts_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bounty_counts AS c (scope, status, difficulty, n, reward_sum)
  SELECT d.scope, d.status, d.difficulty, sum(d.dn), sum(d.dr)
  FROM (
    SELECT s.scope, o.status, o.difficulty, -1 AS dn, -o.reward_amount AS dr
    FROM old_rows o CROSS JOIN LATERAL (VALUES ('*'), (o.project_id)) AS s(scope)
    UNION ALL
    SELECT s.scope, r.status, r.difficulty, 1, r.reward_amount
    FROM new_rows r CROSS JOIN LATERAL (VALUES ('*'), (r.project_id)) AS s(scope)
  ) d
  GROUP BY d.scope, d.status, d.difficulty
  HAVING sum(d.dn) <> 0 OR sum(d.dr) <> 0
  ORDER BY d.scope, d.status, d.difficulty
  ON CONFLICT (scope, status, difficulty)
  DO UPDATE SET n = c.n + excluded.n, reward_sum = c.reward_sum + excluded.reward_sum;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER bounty_counts_insert AFTER INSERT ON bounties
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bounty_counts_on_insert();
--> statement-breakpoint
CREATE TRIGGER bounty_counts_update AFTER UPDATE ON bounties
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bounty_counts_on_update();
