# MongoDB connection errors, without a server (none installs from Debian 12's packages): a
# closed local port is a clear error within a few seconds naming the redacted URI and libmongoc's
# server selection failure, exit 1, and the password (from MONGODB_PASSWORD, or written into the
# string, which is refused) is never printed; a string without a database, a bad sample= and a
# malformed string are errors naming the string; a libmongoc that cannot be loaded is an error.
export MONGODB_PASSWORD=s3cretPW9
run() { # script text
  out=$("$RELIX" -e "$1" 2>&1)
  rc=$?
  printf '%s\n' "$out"
  echo "exit $rc"
  case "$out" in *s3cretPW9* | *hunter2* | *k3yPass*) echo "A PASSWORD WAS PRINTED" ;; esac
}
start=$(date +%s)
run "M := connect('mongodb://relix@127.0.0.1:1/shop'); query { M.orders };"
end=$(date +%s)
[ $((end - start)) -le 5 ] && echo "failed within 5 seconds" || echo "took $((end - start)) seconds"
run "M := connect('mongodb://127.0.0.1:1/shop?serverSelectionTimeoutMS=500&appname=x'); query { M.orders };"
run "M := connect('mongodb://relix:hunter2@127.0.0.1:1/shop'); query { M.orders };"
run "M := connect('mongodb://127.0.0.1:1/shop?tls=true&tlsCertificateKeyFilePassword=k3yPass'); query { M.orders };"
run "M := connect('mongodb://127.0.0.1:1/'); query { M.orders };"
run "M := connect('mongodb://127.0.0.1:1/shop?sample=some'); query { M.orders };"
run "M := connect('mongodb://127.0.0.1:1/shop?sample=0'); query { M.orders };"
run "M := connect('mongodb://[::1/shop'); query { M.orders };"
run "M := connect('mongodb+srv://relix@127.0.0.1:1/shop'); query { M.orders };"
# libmongoc is loaded at run time: a library that is not there is an error of the connect statement
RELIX_LIBMONGOC=/nonexistent/libmongoc.so run "M := connect('mongodb://127.0.0.1:1/shop'); query { M.orders };"
