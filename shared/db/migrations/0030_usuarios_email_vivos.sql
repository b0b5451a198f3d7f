-- A deleted user's e-mail is free again. An account is deleted by marking it
-- (eliminado), so the unique index of 0001 kept the address reserved forever
-- while the API's pre-check (auth_buscar_login, which skips deleted rows)
-- already called it free: creating a user with it was refused by the index.
-- Unique among live accounts is exactly what login needs: auth_buscar_login
-- reads only live rows, so one e-mail still finds at most one account, and a
-- deleted one is never found (its sessions were revoked when it was deleted).
DROP INDEX usuarios_email_key;
CREATE UNIQUE INDEX usuarios_email_key ON usuarios (lower(email)) WHERE NOT eliminado;
