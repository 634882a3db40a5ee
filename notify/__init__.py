"""Notifications: what the site tells a person (a round published, their result, something needing them, a
reminder before a fixture), by e-mail and by web push to their phones, each kind as they chose
(``docs/notifications.md``)."""
