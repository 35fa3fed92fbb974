-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "client_id" TEXT;

-- Agents that test users made before this migration: their tokens name the paying developer (the
-- app's, who mints its test users), as new ones do (docs/api.md §14.2).
UPDATE "api_tokens" AS t SET "developer_id" = a."developer_id"
FROM "principals" AS p, "apps" AS a
WHERE t."kind" = 'agent' AND t."developer_id" IS NULL AND p."id" = t."principal_id"
  AND p."owner_id" LIKE 'test:%' AND a."id" = split_part(p."owner_id", ':', 2);
