CREATE TABLE `session_profiles` (
	`tenant` text NOT NULL,
	`name` text NOT NULL,
	`origins` text NOT NULL,
	`cookie_count` integer NOT NULL,
	`ciphertext` text NOT NULL,
	`iv` text NOT NULL,
	`tag` text NOT NULL,
	`source_task` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `session_profiles_tenant_name` ON `session_profiles` (`tenant`,`name`);