-- Custom SQL (the schema cannot express triggers): whatever changes what a bearer token stands for
-- (a token revoked or deleted; a user's status, role, phone or country changed), by the API, a CLI
-- command or an operator's SQL, announces it on the `auth_changed` channel when it commits, so
-- every process's token cache forgets it. Payloads: `token:<id>`, `user:<id>`, or `all`.
CREATE FUNCTION "auth_changed_token_revoked"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('auth_changed', 'token:' || NEW."id");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "access_tokens_revoked_notify" AFTER UPDATE OF "revoked_at" ON "access_tokens"
  FOR EACH ROW WHEN (NEW."revoked_at" IS NOT NULL AND OLD."revoked_at" IS NULL)
  EXECUTE FUNCTION "auth_changed_token_revoked"();
--> statement-breakpoint
-- One statement may delete many tokens (the purge): a few are named, more flush every cache.
CREATE FUNCTION "auth_changed_tokens_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  gone integer;
  token_id integer;
BEGIN
  SELECT count(*) INTO gone FROM deleted_tokens;
  IF gone > 100 THEN
    PERFORM pg_notify('auth_changed', 'all');
  ELSE
    FOR token_id IN SELECT "id" FROM deleted_tokens LOOP
      PERFORM pg_notify('auth_changed', 'token:' || token_id);
    END LOOP;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "access_tokens_deleted_notify" AFTER DELETE ON "access_tokens"
  REFERENCING OLD TABLE AS deleted_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_changed_tokens_deleted"();
--> statement-breakpoint
CREATE FUNCTION "auth_changed_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('auth_changed', 'user:' || OLD."id");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_auth_changed_notify" AFTER UPDATE OF "status", "role", "phone", "country" ON "users"
  FOR EACH ROW WHEN (
    OLD."status" IS DISTINCT FROM NEW."status" OR OLD."role" IS DISTINCT FROM NEW."role"
    OR OLD."phone" IS DISTINCT FROM NEW."phone" OR OLD."country" IS DISTINCT FROM NEW."country"
  )
  EXECUTE FUNCTION "auth_changed_user"();
--> statement-breakpoint
CREATE TRIGGER "users_deleted_notify" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "auth_changed_user"();
