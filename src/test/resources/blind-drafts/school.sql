-- A blind schema for find_relevant_metrics (issue 46, class 7): a language school's courses, enrolments, lessons,
-- exams and textbook shop. Written, with its questions (metric-retrieval/golden-blind-school.json), before any
-- score was taken or any ranking rule changed. A textbook order line has a quantity, a unit price and a line
-- total. PostgreSQL dialect; CHECK lists are the statuses' domains.

CREATE TABLE courses (
  id            integer PRIMARY KEY,
  language      varchar(30) NOT NULL,
  level         varchar(2) NOT NULL,
  title         varchar(200) NOT NULL,
  weekly_hours  numeric(4,1) NOT NULL,
  list_price    numeric(10,2) NOT NULL
);

CREATE TABLE teachers (
  id           integer PRIMARY KEY,
  full_name    varchar(200) NOT NULL,
  hired_on     date NOT NULL,
  hourly_rate  numeric(8,2) NOT NULL
);

CREATE TABLE students (
  id             integer PRIMARY KEY,
  full_name      varchar(200) NOT NULL,
  email          varchar(200),
  country        char(2) NOT NULL,
  registered_at  timestamp NOT NULL
);

CREATE TABLE enrolments (
  id               integer PRIMARY KEY,
  student_id       integer NOT NULL REFERENCES students(id),
  course_id        integer NOT NULL REFERENCES courses(id),
  enrolled_at      timestamp NOT NULL,
  status           varchar(10) NOT NULL CHECK (status IN ('pending', 'active', 'completed', 'withdrawn')),
  currency_code    char(3) NOT NULL,
  fee_amount       numeric(10,2) NOT NULL,
  discount_amount  numeric(10,2) NOT NULL DEFAULT 0
);

CREATE TABLE lessons (
  id                integer PRIMARY KEY,
  course_id         integer NOT NULL REFERENCES courses(id),
  teacher_id        integer NOT NULL REFERENCES teachers(id),
  held_at           timestamp NOT NULL,
  duration_minutes  integer NOT NULL,
  attendees         integer NOT NULL
);

CREATE TABLE attendance (
  id            integer PRIMARY KEY,
  lesson_id     integer NOT NULL REFERENCES lessons(id),
  student_id    integer NOT NULL REFERENCES students(id),
  present       boolean NOT NULL,
  minutes_late  integer NOT NULL DEFAULT 0
);

CREATE TABLE textbooks (
  id          integer PRIMARY KEY,
  title       varchar(200) NOT NULL,
  isbn        char(13) NOT NULL UNIQUE,
  list_price  numeric(8,2) NOT NULL
);

CREATE TABLE book_orders (
  id            integer PRIMARY KEY,
  student_id    integer NOT NULL REFERENCES students(id),
  ordered_at    timestamp NOT NULL,
  status        varchar(10) NOT NULL CHECK (status IN ('placed', 'shipped', 'returned', 'cancelled')),
  total_amount  numeric(10,2) NOT NULL
);

CREATE TABLE book_order_lines (
  id             integer PRIMARY KEY,
  book_order_id  integer NOT NULL REFERENCES book_orders(id),
  textbook_id    integer NOT NULL REFERENCES textbooks(id),
  quantity       integer NOT NULL,
  unit_price     numeric(8,2) NOT NULL,
  line_total     numeric(10,2) NOT NULL
);

CREATE TABLE exam_results (
  id          integer PRIMARY KEY,
  student_id  integer NOT NULL REFERENCES students(id),
  course_id   integer NOT NULL REFERENCES courses(id),
  sat_at      timestamp NOT NULL,
  score       numeric(5,1) NOT NULL,
  passed      boolean NOT NULL
);
