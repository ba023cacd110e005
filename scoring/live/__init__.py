"""The live game: every phone at a table, and every spectator, polls the game's live fragment and is shown a
change within one poll.

- :mod:`scoring.live.versions`: the one door for every writer (:func:`~scoring.live.versions.game_changed`
  raises the game's ``revision`` or ``activity`` and tells the live backend once committed) and what a poll
  reads (:func:`~scoring.live.versions.current`).
- :mod:`scoring.live.backends`: where a poll finds a game's version, chosen by the setting ``LIVE_BACKEND`` as
  Django chooses its session engine: the database (:mod:`~scoring.live.backends.database`) or, with Redis,
  the shared cache (:mod:`~scoring.live.backends.cache`), so that an unchanged poll runs no query.
- :mod:`scoring.live.parts`: the fragment in parts, so that a changed poll sends only the parts that changed.
- :mod:`scoring.live.intervals`: how often a page polls.
"""
