-- A blind schema for find_relevant_metrics (issue 46, class 7): a craft brewery's brewing, wholesale invoicing,
-- keg returns and taproom. Written, with its questions (metric-retrieval/golden-blind-brewery.json), before any
-- score was taken or any ranking rule changed. An invoice line has a quantity, a unit price, a discount and a line
-- total. PostgreSQL dialect; CHECK lists are the statuses' domains.

CREATE TABLE beers (
  id           integer PRIMARY KEY,
  name         varchar(100) NOT NULL,
  style        varchar(40) NOT NULL,
  abv_percent  numeric(4,2) NOT NULL,
  ibu          integer,
  launched_on  date NOT NULL
);

CREATE TABLE brew_batches (
  id                integer PRIMARY KEY,
  beer_id           integer NOT NULL REFERENCES beers(id),
  brewed_at         timestamp NOT NULL,
  volume_litres     numeric(8,1) NOT NULL,
  original_gravity  numeric(5,3) NOT NULL,
  status            varchar(12) NOT NULL CHECK (status IN ('fermenting', 'conditioning', 'packaged', 'dumped'))
);

CREATE TABLE customers (
  id             integer PRIMARY KEY,
  name           varchar(200) NOT NULL,
  customer_type  varchar(12) NOT NULL CHECK (customer_type IN ('pub', 'shop', 'distributor')),
  city           varchar(100) NOT NULL,
  created_at     timestamp NOT NULL
);

CREATE TABLE invoices (
  id             integer PRIMARY KEY,
  customer_id    integer NOT NULL REFERENCES customers(id),
  issued_at      timestamp NOT NULL,
  status         varchar(8) NOT NULL CHECK (status IN ('draft', 'issued', 'paid', 'void')),
  currency_code  char(3) NOT NULL,
  total_amount   numeric(12,2) NOT NULL,
  amount_due     numeric(12,2) NOT NULL
);

CREATE TABLE invoice_lines (
  id            integer PRIMARY KEY,
  invoice_id    integer NOT NULL REFERENCES invoices(id),
  beer_id       integer NOT NULL REFERENCES beers(id),
  package_type  varchar(8) NOT NULL CHECK (package_type IN ('keg', 'can', 'bottle')),
  quantity      integer NOT NULL,
  unit_price    numeric(10,2) NOT NULL,
  discount_pct  numeric(5,2) NOT NULL DEFAULT 0,
  line_total    numeric(12,2) NOT NULL
);

CREATE TABLE keg_returns (
  id              integer PRIMARY KEY,
  customer_id     integer NOT NULL REFERENCES customers(id),
  returned_at     timestamp NOT NULL,
  kegs            integer NOT NULL,
  deposit_refund  numeric(10,2) NOT NULL
);

CREATE TABLE taproom_tabs (
  id           integer PRIMARY KEY,
  opened_at    timestamp NOT NULL,
  closed_at    timestamp,
  guests       integer NOT NULL,
  total_amount numeric(10,2) NOT NULL,
  tip_amount   numeric(10,2) NOT NULL DEFAULT 0
);

CREATE TABLE ingredient_purchases (
  id            integer PRIMARY KEY,
  supplier      varchar(100) NOT NULL,
  ingredient    varchar(60) NOT NULL,
  purchased_at  timestamp NOT NULL,
  weight_kg     numeric(8,2) NOT NULL,
  cost          numeric(10,2) NOT NULL
);
