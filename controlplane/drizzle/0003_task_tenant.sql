ALTER TABLE `tasks` ADD `tenant` text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `actor` text;--> statement-breakpoint
CREATE INDEX `tasks_tenant_created_at` ON `tasks` (`tenant`,`created_at`);