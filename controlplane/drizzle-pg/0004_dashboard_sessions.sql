CREATE TABLE "dashboard_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"expires_at" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
