"""The Telegram front end: a thin adapter over the conversation core."""

import os

# PTB 22 warns on every RetryAfter read unless this opts in to its coming timedelta type; the
# rate limiter reads it on each 429, so without it every throttled send logs a warning.
os.environ.setdefault("PTB_TIMEDELTA", "true")
