ALTER TABLE `steps` ADD `model_usage` text;--> statement-breakpoint
ALTER TABLE `tasks` ADD `usage` text;