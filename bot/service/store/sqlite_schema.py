"""The SQLite schema, as numbered migrations: `MIGRATIONS[i]` brings ``PRAGMA user_version`` i to i + 1, each
in one transaction. Hand-written and append-only: a released migration is never edited."""

from __future__ import annotations

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE guild_settings (
            guild_id INTEGER PRIMARY KEY,
            turn_timeout REAL NOT NULL,
            threads INTEGER NOT NULL,
            allowed_channels TEXT NOT NULL
        )""",
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            seed INTEGER NOT NULL,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('active', 'finished', 'aborted')),
            ply INTEGER NOT NULL DEFAULT 0,
            turn_timeout REAL NOT NULL,
            deadline REAL,
            snapshot TEXT NOT NULL,
            outcome TEXT,
            rated INTEGER NOT NULL,
            ratings_applied INTEGER NOT NULL DEFAULT 0,
            abort_votes TEXT NOT NULL DEFAULT '[]',
            takeback TEXT,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            finished_at REAL
        )""",
        "CREATE UNIQUE INDEX matches_one_active_per_channel ON matches (channel_id) WHERE status = 'active'",
        "CREATE INDEX matches_deadline ON matches (deadline) WHERE status = 'active'",
        "CREATE INDEX matches_guild_game ON matches (guild_id, game, status)",
        """CREATE TABLE match_seats (
            match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            ai_level TEXT,
            player_key TEXT NOT NULL,
            result TEXT,
            PRIMARY KEY (match_id, seat)
        )""",
        "CREATE INDEX match_seats_user ON match_seats (user_id)",
        "CREATE INDEX match_seats_player ON match_seats (player_key)",
        """CREATE TABLE moves (
            match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
            ply INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            notation TEXT NOT NULL,
            forced INTEGER NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (match_id, ply)
        )""",
        """CREATE TABLE challenges (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            challenger_id INTEGER NOT NULL,
            opponent_id INTEGER NOT NULL,
            status TEXT NOT NULL,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL,
            match_id INTEGER REFERENCES matches (id)
        )""",
        "CREATE INDEX challenges_pending ON challenges (expires_at) WHERE status = 'pending'",
        """CREATE TABLE lobbies (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            host_id INTEGER NOT NULL,
            seat_order TEXT NOT NULL,
            max_players INTEGER NOT NULL,
            status TEXT NOT NULL,
            created_at REAL NOT NULL,
            match_id INTEGER REFERENCES matches (id)
        )""",
        """CREATE TABLE lobby_members (
            lobby_id INTEGER NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            ai_level TEXT,
            joined_at REAL NOT NULL,
            PRIMARY KEY (lobby_id, position)
        )""",
        """CREATE UNIQUE INDEX lobby_members_once ON lobby_members (lobby_id, user_id)
            WHERE ai_level IS NULL""",
        """CREATE TABLE ratings (
            game TEXT NOT NULL,
            player_key TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (game, player_key)
        )""",
        """CREATE TABLE rating_changes (
            match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
            player_key TEXT NOT NULL,
            mu_before REAL,
            sigma_before REAL,
            mu_after REAL NOT NULL,
            sigma_after REAL NOT NULL,
            PRIMARY KEY (match_id, player_key)
        )""",
    ),
    (
        # Matches whose snapshot cannot be loaded are set aside with the reason, and free their channel.
        "ALTER TABLE matches ADD COLUMN quarantine TEXT",
        "DROP INDEX matches_one_active_per_channel",
        """CREATE UNIQUE INDEX matches_one_active_per_channel ON matches (channel_id)
            WHERE status = 'active' AND quarantine IS NULL""",
        "DROP INDEX matches_deadline",
        "CREATE INDEX matches_deadline ON matches (deadline) WHERE status = 'active' AND quarantine IS NULL",
        # Start-up scans read only the few rows they need.
        "CREATE INDEX matches_active ON matches (id) WHERE status = 'active'",
        """CREATE INDEX matches_unrated ON matches (id)
            WHERE status = 'finished' AND rated = 1 AND ratings_applied = 0""",
        "CREATE INDEX match_seats_ai ON match_seats (match_id) WHERE ai_level IS NOT NULL",
        "CREATE INDEX matches_finished ON matches (finished_at) WHERE status IN ('finished', 'aborted')",
        # Spam limits count what a user or a channel has open.
        "CREATE INDEX challenges_open_by_challenger ON challenges (challenger_id) WHERE status = 'pending'",
        "CREATE INDEX challenges_open_in_channel ON challenges (channel_id) WHERE status = 'pending'",
        "CREATE INDEX lobbies_open_by_host ON lobbies (host_id) WHERE status = 'open'",
        "CREATE INDEX lobbies_open_in_channel ON lobbies (channel_id) WHERE status = 'open'",
        # Leaderboards from indexed data: each rating counts its rated matches, each guild its players.
        "ALTER TABLE ratings ADD COLUMN played INTEGER NOT NULL DEFAULT 0",
        """UPDATE ratings SET played = (
            SELECT COUNT(*) FROM match_seats s JOIN matches m ON m.id = s.match_id
            WHERE s.player_key = ratings.player_key AND m.game = ratings.game
              AND m.status = 'finished' AND m.rated = 1 AND m.ratings_applied = 1)""",
        "CREATE INDEX ratings_board ON ratings (game, (mu - 3 * sigma))",
        """CREATE TABLE guild_ratings (
            guild_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            player_key TEXT NOT NULL,
            played INTEGER NOT NULL,
            PRIMARY KEY (guild_id, game, player_key)
        )""",
        """INSERT INTO guild_ratings (guild_id, game, player_key, played)
            SELECT m.guild_id, m.game, s.player_key, COUNT(*) FROM matches m
            JOIN match_seats s ON s.match_id = m.id
            WHERE m.guild_id IS NOT NULL AND m.status = 'finished' AND m.rated = 1 AND m.ratings_applied = 1
            GROUP BY m.guild_id, m.game, s.player_key""",
    ),
    (
        # Preferences: a user's board theme (NULL follows the server) and turn reminders; a server's theme.
        """CREATE TABLE user_prefs (
            user_id INTEGER PRIMARY KEY,
            theme TEXT,
            reminders TEXT NOT NULL DEFAULT 'off' CHECK (reminders IN ('off', 'dm', 'mention')),
            updated_at REAL NOT NULL
        )""",
        "CREATE INDEX user_prefs_reminded ON user_prefs (user_id) WHERE reminders <> 'off'",
        """CREATE TABLE guild_prefs (
            guild_id INTEGER PRIMARY KEY,
            theme TEXT NOT NULL,
            updated_at REAL NOT NULL
        )""",
        # Posted messages the bot edits later: a match's newest board, a challenge's message.
        """CREATE TABLE board_messages (
            match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
            channel_id INTEGER NOT NULL,
            message_id INTEGER NOT NULL,
            posted_at REAL NOT NULL
        )""",
        """CREATE TABLE challenge_messages (
            challenge_id INTEGER PRIMARY KEY REFERENCES challenges (id) ON DELETE CASCADE,
            channel_id INTEGER NOT NULL,
            message_id INTEGER NOT NULL,
            posted_at REAL NOT NULL
        )""",
        # The turn each match was last reminded of (its deadline): one reminder per turn.
        """CREATE TABLE turn_reminders (
            match_id INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
            deadline REAL NOT NULL,
            sent_at REAL NOT NULL
        )""",
    ),
    (
        # Deployment-wide values (e.g. the fingerprint of the last slash-command sync).
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    (
        # The language of a guild's public messages (NULL: the guild's Discord locale).
        "ALTER TABLE guild_settings ADD COLUMN locale TEXT",
    ),
    (
        # Leaderboards rank by the shown rating, which is mu on an Elo-like scale (bot/service/ratings.py),
        # no longer the conservative mu - 3 sigma: the index follows. Nothing stored changes.
        "DROP INDEX ratings_board",
        "CREATE INDEX ratings_board ON ratings (game, mu, player_key)",
    ),
    (
        # A server's leaderboard walks an index in rating order and stops at its length, instead of sorting
        # every player of the server: each guild's row keeps a copy of the player's mu and sigma, which
        # apply_ratings updates in every guild of the player whenever the rating changes.
        "ALTER TABLE guild_ratings ADD COLUMN mu REAL",
        "ALTER TABLE guild_ratings ADD COLUMN sigma REAL",
        """UPDATE guild_ratings SET
            mu = (SELECT r.mu FROM ratings r
                  WHERE r.game = guild_ratings.game AND r.player_key = guild_ratings.player_key),
            sigma = (SELECT r.sigma FROM ratings r
                     WHERE r.game = guild_ratings.game AND r.player_key = guild_ratings.player_key)""",
        "CREATE INDEX guild_ratings_board ON guild_ratings (guild_id, game, mu, player_key)",
        "CREATE INDEX guild_ratings_player ON guild_ratings (game, player_key)",
        # Start-up loads every match that is not over (store.unsettled_match_ids) from this small index, not
        # from a scan of every match ever played.
        """CREATE INDEX matches_unsettled ON matches (id)
            WHERE quarantine IS NULL AND (status IS NULL OR status NOT IN ('finished', 'aborted'))""",
        # What the file says about itself, never copied into another database: how it was last shut down
        # (start-up checks every page only after an unclean shutdown; sqlite.py's SHUTDOWN_KEY).
        "CREATE TABLE file_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    (
        # No schema change. Its data step (RECOUNT_RESIGNATION_PLIES) gives the TilingKing snapshots of the
        # previous engine, which counted a ply for a resignation on one's own turn, the replay's plies.
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
RECOUNT_RESIGNATION_PLIES = 7
"""The migration after whose statements the store runs `upgrades.recounted_snapshot` over the TilingKing
matches whose log has a resignation, in the same transaction (bot/service/upgrades.py)."""
