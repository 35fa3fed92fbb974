-- CreateEnum
CREATE TYPE "PrincipalKind" AS ENUM ('user', 'agent');

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('owner', 'admin', 'writer', 'reader');

-- CreateEnum
CREATE TYPE "MembershipState" AS ENUM ('active', 'invited', 'requested');

-- CreateEnum
CREATE TYPE "Visibility" AS ENUM ('members', 'public');

-- CreateEnum
CREATE TYPE "TokenKind" AS ENUM ('developer', 'test_session', 'agent');

-- CreateTable
CREATE TABLE "developers" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "developers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "apps" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "developer_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "apps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_origins" (
    "origin" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_origins_pkey" PRIMARY KEY ("origin")
);

-- CreateTable
CREATE TABLE "app_clients" (
    "client_id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "redirect_uris" TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "app_clients_pkey" PRIMARY KEY ("client_id")
);

-- CreateTable
CREATE TABLE "deployments" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "env" TEXT NOT NULL,
    "schema" JSONB NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "deployments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "principals" (
    "id" TEXT NOT NULL,
    "kind" "PrincipalKind" NOT NULL,
    "owner_id" TEXT,
    "name" TEXT,
    "handle" TEXT,
    "display_name" TEXT,
    "handle_issued" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "principals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" TEXT NOT NULL,
    "kind" "TokenKind" NOT NULL,
    "token_hash" TEXT NOT NULL,
    "developer_id" TEXT,
    "principal_id" TEXT,
    "deployment_id" TEXT,
    "expires_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blocks" (
    "blocker_id" TEXT NOT NULL,
    "blocked_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blocks_pkey" PRIMARY KEY ("blocker_id","blocked_id")
);

-- CreateTable
CREATE TABLE "resources" (
    "id" TEXT NOT NULL,
    "deployment_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "visibility" "Visibility" NOT NULL,
    "discoverable" BOOLEAN NOT NULL,
    "static_slug" TEXT,
    "owner_principal" TEXT,
    "member_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "resources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memberships" (
    "resource_id" TEXT NOT NULL,
    "principal_id" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "state" "MembershipState" NOT NULL,
    "invited_by" TEXT,
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("resource_id","principal_id")
);

-- CreateTable
CREATE TABLE "invite_links" (
    "id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "creator_id" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "code_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "used_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invite_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "developers_email_key" ON "developers"("email");

-- CreateIndex
CREATE INDEX "apps_developer_id_idx" ON "apps"("developer_id");

-- CreateIndex
CREATE INDEX "app_origins_app_id_idx" ON "app_origins"("app_id");

-- CreateIndex
CREATE INDEX "app_clients_app_id_idx" ON "app_clients"("app_id");

-- CreateIndex
CREATE UNIQUE INDEX "deployments_app_id_env_key" ON "deployments"("app_id", "env");

-- CreateIndex
CREATE UNIQUE INDEX "principals_handle_key" ON "principals"("handle");

-- CreateIndex
CREATE INDEX "principals_owner_id_idx" ON "principals"("owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_principal_id_idx" ON "api_tokens"("principal_id");

-- CreateIndex
CREATE INDEX "blocks_blocked_id_idx" ON "blocks"("blocked_id");

-- CreateIndex
CREATE INDEX "resources_deployment_id_type_discoverable_created_at_id_idx" ON "resources"("deployment_id", "type", "discoverable", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "resources_deployment_id_type_static_slug_key" ON "resources"("deployment_id", "type", "static_slug");

-- CreateIndex
CREATE INDEX "memberships_principal_id_state_idx" ON "memberships"("principal_id", "state");

-- CreateIndex
CREATE INDEX "memberships_resource_id_invited_by_state_idx" ON "memberships"("resource_id", "invited_by", "state");

-- CreateIndex
CREATE UNIQUE INDEX "invite_links_code_hash_key" ON "invite_links"("code_hash");

-- CreateIndex
CREATE INDEX "invite_links_resource_id_creator_id_idx" ON "invite_links"("resource_id", "creator_id");

-- AddForeignKey
ALTER TABLE "apps" ADD CONSTRAINT "apps_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_origins" ADD CONSTRAINT "app_origins_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "app_clients" ADD CONSTRAINT "app_clients_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "principals" ADD CONSTRAINT "principals_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "principals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_principal_id_fkey" FOREIGN KEY ("principal_id") REFERENCES "principals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "resources" ADD CONSTRAINT "resources_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "resources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_principal_id_fkey" FOREIGN KEY ("principal_id") REFERENCES "principals"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invite_links" ADD CONSTRAINT "invite_links_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "resources"("id") ON DELETE CASCADE ON UPDATE CASCADE;
