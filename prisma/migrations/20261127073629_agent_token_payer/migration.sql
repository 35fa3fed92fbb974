-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "client_id" TEXT;
