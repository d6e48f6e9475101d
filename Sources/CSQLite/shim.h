// The system SQLite (libsqlite3-dev on Debian): PushDedupe's SQLiteStore on Linux. Apple
// platforms import the SDK's SQLite3 module instead.
#include <sqlite3.h>
