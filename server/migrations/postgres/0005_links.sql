-- Payment links (`paylink link create`): what an invoice created through a
-- link's public page must be. Booleans are BIGINT 0/1 and integers BIGINT so
-- the same queries run on PostgreSQL.
CREATE TABLE payment_links (
    slug               TEXT PRIMARY KEY,
    name               TEXT NOT NULL,
    description        TEXT NOT NULL,
    -- NULL when the payer states the amount (price_by_customer = 1).
    price_cents        BIGINT,
    price_by_customer  BIGINT NOT NULL DEFAULT 0,
    -- Comma-separated, in the merchant's order: 'PIX,BOLETO'.
    payment_types      TEXT NOT NULL,
    invoice_type       TEXT NOT NULL,
    max_installments   BIGINT NOT NULL DEFAULT 1,
    due_in_days        BIGINT NOT NULL DEFAULT 3,
    redirect_to        TEXT,
    active             BIGINT NOT NULL DEFAULT 1,
    created_at         TEXT NOT NULL
);

-- Customers created through a link: a link's invoice may only be for one of
-- them. No reference to customers: with a remote upstream they live there.
CREATE TABLE link_customers (
    slug         TEXT NOT NULL REFERENCES payment_links(slug),
    customer_id  TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (slug, customer_id)
);
