-- The audit log is append-only: the database itself refuses edits and deletions. Tampering then
-- needs a deliberate DROP TRIGGER, and `clawdie audit verify` still detects what was changed.
CREATE TRIGGER `audit_events_no_update` BEFORE UPDATE ON `audit_events`
BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END;
--> statement-breakpoint
CREATE TRIGGER `audit_events_no_delete` BEFORE DELETE ON `audit_events`
BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END;
