CREATE TABLE "store_identity" (
	"singleton" integer PRIMARY KEY NOT NULL,
	"id" text NOT NULL
);
