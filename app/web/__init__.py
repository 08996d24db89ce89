"""The web edge: what every request and websocket goes through before a route sees it (body limits and JSON
parsing, cross-site checks, security headers, the crash page, rate limits, the admin session)."""
