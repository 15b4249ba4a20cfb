CREATE TABLE `actions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`step_id` integer NOT NULL,
	`task_id` text NOT NULL,
	`action_index` integer NOT NULL,
	`type` text NOT NULL,
	`model_action` text NOT NULL,
	`action` text,
	`screen_x` real,
	`screen_y` real,
	`css_x` real,
	`css_y` real,
	`status` text NOT NULL,
	`error_code` text,
	`error_message` text,
	`duration_ms` real,
	`navigated` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`step_id`) REFERENCES `steps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `actions_step` ON `actions` (`step_id`);--> statement-breakpoint
CREATE TABLE `logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`task_id` text NOT NULL,
	`step_id` integer,
	`at` integer NOT NULL,
	`level` text NOT NULL,
	`event` text NOT NULL,
	`message` text NOT NULL,
	`data` text,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `logs_task` ON `logs` (`task_id`);--> statement-breakpoint
CREATE INDEX `logs_step` ON `logs` (`step_id`);--> statement-breakpoint
CREATE TABLE `steps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`task_id` text NOT NULL,
	`step_index` integer NOT NULL,
	`thought` text,
	`reflection` text,
	`raw_prediction` text,
	`outcome` text NOT NULL,
	`outcome_message` text,
	`screenshot_path` text,
	`image_width` integer,
	`image_height` integer,
	`device_pixel_ratio` real,
	`capture_ms` real,
	`model_ms` real,
	`execute_ms` real,
	`model_request_bytes` integer,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`task_id`) REFERENCES `tasks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `steps_task_index` ON `steps` (`task_id`,`step_index`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`instruction` text NOT NULL,
	`start_url` text,
	`status` text NOT NULL,
	`summary` text,
	`result_data` text,
	`error_code` text,
	`error_message` text,
	`step_count` integer DEFAULT 0 NOT NULL,
	`max_steps` integer NOT NULL,
	`model_name` text NOT NULL,
	`coordinate_mode` text NOT NULL,
	`final_screenshot_path` text,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`ended_at` integer
);
--> statement-breakpoint
CREATE INDEX `tasks_created_at` ON `tasks` (`created_at`);