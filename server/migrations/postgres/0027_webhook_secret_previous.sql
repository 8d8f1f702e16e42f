-- A rotated signing secret keeps signing beside the new one for a while (Standard Webhooks'
-- several signatures in `webhook-signature`), so a receiver has time to take the new one
-- without refusing a delivery meanwhile.
ALTER TABLE applications ADD COLUMN webhook_secret_previous TEXT;
ALTER TABLE applications ADD COLUMN webhook_secret_previous_until TEXT;
