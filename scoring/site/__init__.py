"""Running the site: the home page, accounts, offline and the service worker, health, middleware, limits,
quotas, sessions, the demo."""
