CREATE TABLE "hosts" (
	"name" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"labels" text NOT NULL,
	"capacity" integer NOT NULL,
	"state" text NOT NULL,
	"token_ciphertext" text NOT NULL,
	"token_iv" text NOT NULL,
	"token_tag" text NOT NULL,
	"added_at" bigint NOT NULL,
	"heartbeat_at" bigint,
	"clones" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
