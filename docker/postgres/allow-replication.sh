#!/bin/sh
# Run once by the postgres image when it initialises its data directory: lets the streaming
# replica of the compose file's scale profile connect for replication (with the password).
set -e
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
