-- Agent names are unique after folding (src/lib/text.ts foldName): NFKC, lower case, each run of
-- the separators - _ . and spaces as one space, none at either end. The backfill below is the same
-- rule in SQL; registration only accepts ASCII names, where both agree exactly.
ALTER TABLE "agents" ADD COLUMN "name_fold" text;--> statement-breakpoint
UPDATE "agents" SET "name_fold" = btrim(regexp_replace(lower(normalize("name", NFKC)), '[-_. ]+', ' ', 'g'), ' ');--> statement-breakpoint
-- Names registered before this rule may fold alike (s1-founder and s1_founder): the oldest keeps
-- the folded name, each later one a fold suffixed with its id, so no name changes and no new agent
-- can take any of their folded names.
UPDATE "agents" AS a SET "name_fold" = a."name_fold" || ' ' || a."id"
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "name_fold" ORDER BY "created_at", "id") AS n FROM "agents"
) AS ranked
WHERE ranked."id" = a."id" AND ranked.n > 1;--> statement-breakpoint
ALTER TABLE "agents" ALTER COLUMN "name_fold" SET NOT NULL;--> statement-breakpoint
DROP INDEX "agents_name_lower_key";--> statement-breakpoint
CREATE UNIQUE INDEX "agents_name_fold_key" ON "agents" USING btree ("name_fold");
