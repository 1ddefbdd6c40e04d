-- bounty_words: how many bounties hold each word of their search vector, kept in step with bounties
-- inside the same transaction as every change (issue 29). A one-word keyword search with no other
-- filter reads its total here: counting through the GIN index lists every match first (~6 ms for a
-- word in 1% of a million bounties), whatever the bound. Words are upserted in word order, so two
-- transactions adding bounties with words in common lock those rows in the same order.
CREATE TABLE "bounty_words" (
	"word" text PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO bounty_words (word, n)
SELECT t.word, count(*) FROM bounties b CROSS JOIN LATERAL unnest(tsvector_to_array(b.search)) AS t(word)
GROUP BY t.word;
--> statement-breakpoint
-- Bounties added or removed: one upsert per distinct word of the statement (a bulk insert adds each
-- word once). The insert and the delete trigger both name their rows changed_rows.
CREATE FUNCTION bounty_words_on_insert_or_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bounty_words AS w (word, n)
  SELECT t.word, CASE TG_OP WHEN 'DELETE' THEN -count(*) ELSE count(*) END
  FROM changed_rows r CROSS JOIN LATERAL unnest(tsvector_to_array(r.search)) AS t(word)
  GROUP BY t.word
  ORDER BY t.word
  ON CONFLICT (word) DO UPDATE SET n = w.n + excluded.n;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A title or description edited: the words it lost and gained. Row-level and only for those columns,
-- so the many updates of status, claims and payability never run it.
CREATE FUNCTION bounty_words_on_edit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bounty_words AS w (word, n)
  SELECT d.word, sum(d.dn) FROM (
    SELECT unnest(tsvector_to_array(OLD.search)) AS word, -1 AS dn
    UNION ALL
    SELECT unnest(tsvector_to_array(NEW.search)), 1
  ) d
  GROUP BY d.word
  HAVING sum(d.dn) <> 0
  ORDER BY d.word
  ON CONFLICT (word) DO UPDATE SET n = w.n + excluded.n;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER bounty_words_insert AFTER INSERT ON bounties
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bounty_words_on_insert_or_delete();
--> statement-breakpoint
CREATE TRIGGER bounty_words_edit AFTER UPDATE OF title, description ON bounties
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search) EXECUTE FUNCTION bounty_words_on_edit();
--> statement-breakpoint
CREATE TRIGGER bounty_words_delete AFTER DELETE ON bounties
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bounty_words_on_insert_or_delete();
