"""Serving the site as in production on this machine: nginx in front of gunicorn (``make serve``)."""
