-- Pages anyone can open (web/, issue 42): a server's choice (`/bredon config pages:`), off until
-- it turns them on; 'unlisted' serves a page to whoever has its unguessable address, 'listed'
-- also the server's lobby page and the links between pages. The secret the addresses are signed
-- with is made once, at the first page served (unless BREDON_WEB_SECRET sets one).
ALTER TABLE guild_settings ADD COLUMN pages TEXT NOT NULL DEFAULT 'off'
    CHECK (pages IN ('off', 'unlisted', 'listed'));
CREATE TABLE page_secret (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    secret  TEXT NOT NULL
);
