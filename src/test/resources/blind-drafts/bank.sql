-- A third blind schema, written before the snapshot drafting rule was changed: a retail bank. Traps: daily balance
-- snapshots keyed by account and day, monthly loan positions with a surrogate key and an as_of date, branch cash
-- kept per branch, currency and day, balances in their account's currency, an overdraft limit, interest rates,
-- days past due. Portable DDL: the same statements create it on PostgreSQL and MariaDB.

CREATE TABLE branches (
  branch_id   integer PRIMARY KEY,
  name        varchar(80) NOT NULL,
  opened_on   date NOT NULL
);

CREATE TABLE customers (
  customer_id  integer PRIMARY KEY,
  full_name    varchar(120) NOT NULL,
  branch_id    integer NOT NULL,
  joined_on    date NOT NULL,
  FOREIGN KEY (branch_id) REFERENCES branches (branch_id)
);

CREATE TABLE accounts (
  account_id       integer PRIMARY KEY,
  customer_id      integer NOT NULL,
  product          varchar(20) NOT NULL CHECK (product IN ('current', 'savings', 'credit')),
  currency         char(3) NOT NULL,
  opened_on        date NOT NULL,
  closed_on        date NULL,
  overdraft_limit  numeric(14,2) NOT NULL,
  FOREIGN KEY (customer_id) REFERENCES customers (customer_id)
);

CREATE TABLE account_balances (
  account_id         integer NOT NULL,
  balance_date       date NOT NULL,
  ledger_balance     numeric(14,2) NOT NULL,
  available_balance  numeric(14,2) NOT NULL,
  PRIMARY KEY (account_id, balance_date),
  FOREIGN KEY (account_id) REFERENCES accounts (account_id)
);

CREATE TABLE card_transactions (
  transaction_id     integer PRIMARY KEY,
  account_id         integer NOT NULL,
  posted_on          date NOT NULL,
  amount             numeric(14,2) NOT NULL,
  merchant_category  varchar(40) NOT NULL,
  FOREIGN KEY (account_id) REFERENCES accounts (account_id)
);

CREATE TABLE loans (
  loan_id           integer PRIMARY KEY,
  customer_id       integer NOT NULL,
  currency          char(3) NOT NULL,
  disbursed_on      date NOT NULL,
  principal_amount  numeric(14,2) NOT NULL,
  interest_rate     numeric(6,4) NOT NULL,
  FOREIGN KEY (customer_id) REFERENCES customers (customer_id)
);

CREATE TABLE loan_positions (
  position_id            integer PRIMARY KEY,
  loan_id                integer NOT NULL,
  as_of                  date NOT NULL,
  outstanding_principal  numeric(14,2) NOT NULL,
  days_past_due          integer NOT NULL,
  FOREIGN KEY (loan_id) REFERENCES loans (loan_id)
);

CREATE TABLE branch_cash (
  branch_id      integer NOT NULL,
  currency       char(3) NOT NULL,
  snapshot_date  date NOT NULL,
  cash_on_hand   numeric(14,2) NOT NULL,
  PRIMARY KEY (branch_id, currency, snapshot_date),
  FOREIGN KEY (branch_id) REFERENCES branches (branch_id)
);
