-- Phones are stored in E.164 with its '+' since issue 23 (`+5511987654321`).
-- Older versions stored the same digits without it (`5511987654321`: the
-- rule then required the country code), so adding the '+' is all it takes.
UPDATE customers SET phone = '+' || phone
WHERE phone IS NOT NULL AND phone <> '' AND phone NOT LIKE '+%';

-- Pending WhatsApp and SMS sends carry the number they go to.
UPDATE notification_sends SET recipient = '+' || recipient
WHERE channel IN ('WhatsApp', 'SMS') AND recipient IS NOT NULL AND recipient <> ''
  AND recipient NOT LIKE '+%';
