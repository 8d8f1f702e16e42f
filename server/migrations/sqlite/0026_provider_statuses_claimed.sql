-- A provider's status callbacks cover every message of the merchant's account, not only
-- paylink's (a WhatsApp number's other traffic). A status is `claimed` once a send holds its
-- provider id; the unclaimed ones are kept a while (a callback may come before the send has
-- recorded its id) and then dropped, so the others' traffic does not pile up here.

ALTER TABLE notification_provider_statuses ADD COLUMN claimed INTEGER NOT NULL DEFAULT 0;
UPDATE notification_provider_statuses SET claimed = 1
 WHERE EXISTS (SELECT 1 FROM notification_sends s
                WHERE s.channel = notification_provider_statuses.channel
                  AND s.provider_id = notification_provider_statuses.provider_id);
CREATE INDEX notification_provider_statuses_unclaimed
    ON notification_provider_statuses(claimed, received_at);
