"""A group's history: the group and its players, invites, statistics and charts, CSV, backup and restore,
import and export."""
