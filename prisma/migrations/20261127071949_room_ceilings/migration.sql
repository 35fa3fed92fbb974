-- CreateTable
CREATE TABLE "room_ceilings" (
    "room_id" TEXT NOT NULL,
    "principal_id" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "room_ceilings_pkey" PRIMARY KEY ("room_id","principal_id")
);

-- CreateIndex
CREATE INDEX "room_ceilings_resource_id_principal_id_idx" ON "room_ceilings"("resource_id", "principal_id");

-- AddForeignKey
ALTER TABLE "room_ceilings" ADD CONSTRAINT "room_ceilings_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "rooms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "room_ceilings" ADD CONSTRAINT "room_ceilings_resource_id_principal_id_fkey" FOREIGN KEY ("resource_id", "principal_id") REFERENCES "memberships"("resource_id", "principal_id") ON DELETE CASCADE ON UPDATE CASCADE;
