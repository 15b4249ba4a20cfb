CREATE TABLE "task_events" (
	"task_id" text NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"data" text NOT NULL,
	"at" bigint NOT NULL,
	CONSTRAINT "task_events_task_id_seq_pk" PRIMARY KEY("task_id","seq")
);
--> statement-breakpoint
ALTER TABLE "task_events" ADD CONSTRAINT "task_events_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;