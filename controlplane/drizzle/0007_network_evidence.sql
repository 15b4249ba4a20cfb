ALTER TABLE `steps` ADD `network` text;--> statement-breakpoint
ALTER TABLE `tasks` ADD `verification` text;