CREATE TABLE `instances` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`pid` integer NOT NULL,
	`hostname` text NOT NULL,
	`url` text,
	`started_at` integer NOT NULL,
	`heartbeat_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `tasks` ADD `owner_instance` text;