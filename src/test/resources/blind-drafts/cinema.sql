-- A blind schema for find_relevant_metrics (issue 46, class 7): a cinema chain's box office, concessions and
-- staff. Written, with its questions (metric-retrieval/golden-blind-cinema.json), before any score was taken or
-- any ranking rule changed. A concession line has a quantity, a unit price and a line total, so its drafts hold
-- both "units sold" and an average unit price. PostgreSQL dialect; CHECK lists are the statuses' domains.

CREATE TABLE cinemas (
  id            integer PRIMARY KEY,
  name          varchar(100) NOT NULL,
  city          varchar(100) NOT NULL,
  screen_count  integer NOT NULL,
  opened_on     date NOT NULL
);

CREATE TABLE films (
  id               integer PRIMARY KEY,
  title            varchar(200) NOT NULL,
  genre            varchar(40) NOT NULL,
  runtime_minutes  integer NOT NULL,
  release_date     date NOT NULL,
  age_rating       varchar(5) NOT NULL
);

CREATE TABLE screenings (
  id          integer PRIMARY KEY,
  cinema_id   integer NOT NULL REFERENCES cinemas(id),
  film_id     integer NOT NULL REFERENCES films(id),
  starts_at   timestamp NOT NULL,
  capacity    integer NOT NULL,
  status      varchar(12) NOT NULL CHECK (status IN ('scheduled', 'completed', 'cancelled'))
);

CREATE TABLE members (
  id          integer PRIMARY KEY,
  full_name   varchar(200) NOT NULL,
  email       varchar(200),
  joined_at   timestamp NOT NULL
);

CREATE TABLE ticket_orders (
  id             integer PRIMARY KEY,
  member_id      integer REFERENCES members(id),
  screening_id   integer NOT NULL REFERENCES screenings(id),
  ordered_at     timestamp NOT NULL,
  status         varchar(12) NOT NULL CHECK (status IN ('pending', 'paid', 'refunded', 'cancelled')),
  currency_code  char(3) NOT NULL,
  total_amount   numeric(10,2) NOT NULL,
  booking_fee    numeric(8,2) NOT NULL DEFAULT 0
);

CREATE TABLE tickets (
  id               integer PRIMARY KEY,
  ticket_order_id  integer NOT NULL REFERENCES ticket_orders(id),
  ticket_type      varchar(10) NOT NULL,
  seat_label       varchar(6) NOT NULL,
  price            numeric(8,2) NOT NULL
);

CREATE TABLE concession_items (
  id          integer PRIMARY KEY,
  name        varchar(100) NOT NULL,
  category    varchar(40) NOT NULL,
  list_price  numeric(8,2) NOT NULL
);

CREATE TABLE concession_sales (
  id              integer PRIMARY KEY,
  cinema_id       integer NOT NULL REFERENCES cinemas(id),
  sold_at         timestamp NOT NULL,
  payment_method  varchar(10) NOT NULL,
  total_amount    numeric(10,2) NOT NULL
);

CREATE TABLE concession_sale_lines (
  id                   integer PRIMARY KEY,
  concession_sale_id   integer NOT NULL REFERENCES concession_sales(id),
  concession_item_id   integer NOT NULL REFERENCES concession_items(id),
  quantity             integer NOT NULL,
  unit_price           numeric(8,2) NOT NULL,
  line_total           numeric(10,2) NOT NULL
);

CREATE TABLE refunds (
  id               integer PRIMARY KEY,
  ticket_order_id  integer NOT NULL REFERENCES ticket_orders(id),
  refunded_at      timestamp NOT NULL,
  amount           numeric(10,2) NOT NULL,
  reason           varchar(200)
);

CREATE TABLE staff_shifts (
  id            integer PRIMARY KEY,
  cinema_id     integer NOT NULL REFERENCES cinemas(id),
  starts_at     timestamp NOT NULL,
  hours_worked  numeric(5,2) NOT NULL,
  hourly_rate   numeric(8,2) NOT NULL
);
