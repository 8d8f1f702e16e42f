-- Notifications through real providers (issue 33): each send's id at the provider (WhatsApp's
-- message id, Twilio's message SID), and what the provider's signed status callbacks said of
-- each message, kept by (channel, provider id). A callback may come before the worker has
-- recorded the id it was given (the provider answers, then calls back at once), so statuses are
-- not written onto the send: the send finds its status here by its provider id.

ALTER TABLE notification_sends ADD COLUMN provider_id TEXT;
CREATE INDEX notification_sends_provider ON notification_sends(channel, provider_id);

CREATE TABLE notification_provider_statuses (
    channel      TEXT NOT NULL,
    provider_id  TEXT NOT NULL,
    -- sent | delivered | read | failed
    status       TEXT NOT NULL,
    -- The status's rank (paylink_model::ProviderStatus::rank): only a higher one replaces it.
    status_rank  INTEGER NOT NULL,
    -- The provider's error, with a failed status.
    error        TEXT,
    -- When it was received (ISO UTC).
    received_at  TEXT NOT NULL,
    PRIMARY KEY (channel, provider_id)
);
