CREATE TABLE `approvals` (
	`id` text PRIMARY KEY NOT NULL,
	`task_id` text,
	`tenant` text NOT NULL,
	`kind` text NOT NULL,
	`reason` text NOT NULL,
	`detail` text NOT NULL,
	`status` text NOT NULL,
	`requested_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`answered_at` integer,
	`answered_by` text
);
--> statement-breakpoint
CREATE INDEX `approvals_status` ON `approvals` (`status`);--> statement-breakpoint
CREATE TABLE `audit_events` (
	`seq` integer PRIMARY KEY NOT NULL,
	`at` integer NOT NULL,
	`type` text NOT NULL,
	`actor` text NOT NULL,
	`task_id` text,
	`data` text NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `secrets` (
	`name` text NOT NULL,
	`tenant` text NOT NULL,
	`ciphertext` text NOT NULL,
	`iv` text NOT NULL,
	`tag` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `secrets_tenant_name` ON `secrets` (`tenant`,`name`);