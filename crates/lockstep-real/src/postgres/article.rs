//! The SQL: the article's lock table and its acquire statement, word for word but for the
//! placeholders (`$1` for `:client_id`, and so on), and the resource as a register.

/// The lock row, as the article's acquire statement reads and writes it.
pub const LOCK_TABLE: &str = "CREATE TABLE distributed_locks (
    lock_name     text PRIMARY KEY,
    holder_id     text,
    fencing_token bigint NOT NULL,
    expires_at    timestamptz NOT NULL
)";

/// The resource: one value and the highest token a write has carried.
pub const REGISTER_TABLE: &str = "CREATE TABLE register (
    name          text PRIMARY KEY,
    value         bigint NOT NULL,
    highest_token bigint NOT NULL
)";

/// The lock row before the first grant: expired, so the first acquire takes it.
pub const SEED_LOCK: &str =
    "INSERT INTO distributed_locks (lock_name, holder_id, fencing_token, expires_at)
VALUES ($1, NULL, $2, '-infinity')";

pub const SEED_REGISTER: &str =
    "INSERT INTO register (name, value, highest_token) VALUES ('resource', $1, 0)";

/// The article's acquire: a monotonic token per acquisition. `$1` client, `$2` TTL in ms,
/// `$3` lock name. No row comes back when the lock is held elsewhere.
pub const ACQUIRE: &str = "UPDATE distributed_locks
SET holder_id     = $1,
    fencing_token = fencing_token + 1,
    expires_at    = CURRENT_TIMESTAMP + ($2 * INTERVAL '1 millisecond')
WHERE lock_name = $3
  AND (expires_at < CURRENT_TIMESTAMP OR holder_id = $1)
RETURNING fencing_token";

/// Release if the row is still this grant's: its holder and its token.
pub const RELEASE_IF_MINE: &str = "UPDATE distributed_locks
SET holder_id = NULL, expires_at = CURRENT_TIMESTAMP
WHERE lock_name = $1 AND holder_id = $2 AND fencing_token = $3";

/// The renewal the article's `RenewingLock` asks of `service.renew` (the article gives no SQL
/// for it): the lease moves to `$4` ms from now if the row is still this holder's, with this
/// token, and has not expired. `$1` lock name, `$2` holder, `$3` token, `$4` TTL in ms.
pub const RENEW: &str = "UPDATE distributed_locks
SET expires_at = CURRENT_TIMESTAMP + ($4 * INTERVAL '1 millisecond')
WHERE lock_name = $1 AND holder_id = $2 AND fencing_token = $3
  AND expires_at >= CURRENT_TIMESTAMP";

/// Release whoever holds it: the hazard a plain delete is.
pub const RELEASE_ANY: &str = "UPDATE distributed_locks
SET holder_id = NULL, expires_at = CURRENT_TIMESTAMP
WHERE lock_name = $1";

pub const READ: &str = "SELECT value FROM register WHERE name = 'resource'";

/// The fenced write: the resource itself refuses a token lower than the highest it has seen
/// (`token >= highest`), in the same statement as the write. `$1` value, `$2` token.
pub const WRITE_FENCED: &str = "UPDATE register
SET value = $1, highest_token = $2
WHERE name = 'resource'
  AND $2 >= highest_token";

/// The write without fencing: the token is recorded, never checked.
pub const WRITE_UNFENCED: &str = "UPDATE register
SET value = $1, highest_token = GREATEST(highest_token, $2)
WHERE name = 'resource'";

/// The register's own log: each write it applied, by which server process (one per client's
/// connection), and when by the server's clock. A write whose client never hears the answer
/// (it crashed while the write was on its way) shows here, and only here.
pub const REGISTER_LOG_TABLE: &str = "CREATE TABLE register_log (
    id         bigserial PRIMARY KEY,
    backend    integer NOT NULL,
    value      bigint NOT NULL,
    applied_at timestamptz NOT NULL
)";

/// Logs each write the register applies, as it applies it: a trigger, so that the writes
/// themselves stay the one statement each above.
pub const LOG_WRITES: &str = "CREATE OR REPLACE FUNCTION log_register_write() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO register_log (backend, value, applied_at)
    VALUES (pg_backend_pid(), NEW.value, clock_timestamp());
    RETURN NULL;
END
$$;
CREATE TRIGGER register_write_logged AFTER UPDATE ON register
FOR EACH ROW EXECUTE FUNCTION log_register_write()";

/// The log in the order the writes were applied, each time in milliseconds since the Unix epoch.
pub const READ_LOG: &str = "SELECT backend, value,
    floor(extract(epoch FROM applied_at) * 1000)::bigint
FROM register_log ORDER BY id";
