"""`concordia serve`: a local web board for a game at the table (docs/web.md).

- `app`: the Starlette app, its routes and the single error path (every refusal is one line of JSON);
- `actions`: what the page asks of a game (open, new, play, undo, redo, view, hint, review, replay),
  through the table layer exactly as the CLI;
- `gamestate`: the game as the page shows it; `board`: the board drawn as SVG at the printed positions;
  `targets`: which board and panel elements make each legal move;
- `jobs`: hints and reviews in a background thread with progress; `replays`: tournament logs;
- `security`: the token, the Host check, the served folder, bounded bodies; `server`: uvicorn.
The page itself (`static/`: HTML, JS, CSS) is shipped in the package: no CDN, no build step.
"""
