-- Browsers as push devices (the web app): `webpush`, whose token is a PushSubscription's JSON,
-- sent to by Web Push (VAPID) instead of FCM.
ALTER TABLE "push_devices" DROP CONSTRAINT "push_devices_platform_check";--> statement-breakpoint
ALTER TABLE "push_devices" ADD CONSTRAINT "push_devices_platform_check" CHECK ("push_devices"."platform" in ('android', 'ios', 'web', 'webpush'));