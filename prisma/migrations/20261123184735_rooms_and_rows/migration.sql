-- CreateTable
CREATE TABLE "rooms" (
    "id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rooms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "room_grants" (
    "room_id" TEXT NOT NULL,
    "principal_id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "room_grants_pkey" PRIMARY KEY ("room_id","principal_id")
);

-- CreateTable
CREATE TABLE "rows" (
    "id" UUID NOT NULL,
    "deployment_id" TEXT NOT NULL,
    "table_name" TEXT NOT NULL,
    "creator_id" TEXT,
    "resource_id" TEXT,
    "room_id" TEXT,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "row_links" (
    "row_id" UUID NOT NULL,
    "resource_id" TEXT NOT NULL,
    "room_id" TEXT,
    "linked_by" TEXT NOT NULL,
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "row_links_pkey" PRIMARY KEY ("row_id","resource_id")
);

-- CreateIndex
CREATE INDEX "rooms_resource_id_created_at_idx" ON "rooms"("resource_id", "created_at");

-- CreateIndex
CREATE INDEX "room_grants_principal_id_resource_id_idx" ON "room_grants"("principal_id", "resource_id");

-- CreateIndex
CREATE INDEX "room_grants_resource_id_principal_id_idx" ON "room_grants"("resource_id", "principal_id");

-- CreateIndex
CREATE INDEX "rows_resource_id_table_name_created_at_id_idx" ON "rows"("resource_id", "table_name", "created_at", "id");

-- CreateIndex
CREATE INDEX "rows_deployment_id_table_name_creator_id_created_at_id_idx" ON "rows"("deployment_id", "table_name", "creator_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "rows_room_id_idx" ON "rows"("room_id");

-- CreateIndex
CREATE INDEX "row_links_resource_id_hidden_created_at_idx" ON "row_links"("resource_id", "hidden", "created_at");

-- CreateIndex
CREATE INDEX "row_links_room_id_idx" ON "row_links"("room_id");

-- AddForeignKey
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "resources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "room_grants" ADD CONSTRAINT "room_grants_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "room_grants" ADD CONSTRAINT "room_grants_resource_id_principal_id_fkey" FOREIGN KEY ("resource_id", "principal_id") REFERENCES "memberships"("resource_id", "principal_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rows" ADD CONSTRAINT "rows_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rows" ADD CONSTRAINT "rows_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "resources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rows" ADD CONSTRAINT "rows_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "row_links" ADD CONSTRAINT "row_links_row_id_fkey" FOREIGN KEY ("row_id") REFERENCES "rows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "row_links" ADD CONSTRAINT "row_links_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "resources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "row_links" ADD CONSTRAINT "row_links_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE NO ACTION ON UPDATE CASCADE;
