// Package pgcluster creates, starts and stops a local PostgreSQL cluster from
// the machine's own binaries (initdb, pg_ctl), without Docker. It backs
// `make run` (a persistent cluster whose data survives restarts) and the test
// helper package pgtest (a throwaway, fsync-less cluster).
//
// initdb refuses to run as root, so when the process runs as root every
// PostgreSQL command is run as the postgres system user through
// `runuser -u postgres --`, the data directory is owned by postgres and the
// directories above it are made traversable (o+x) for that user.
//
// The server listens on 127.0.0.1 only, with Unix-domain sockets disabled
// (so nothing is written to /var/run/postgresql), trusts every local
// connection, and writes its output to the file "logfile" in the data
// directory. The settings pgcluster manages are rewritten on every Start into
// "pgcluster.conf" in the data directory, which postgresql.conf includes.
package pgcluster

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

const (
	// DefaultMaxConnections is the minimum max_connections of a cluster:
	// tests run many connection pools in parallel.
	DefaultMaxConnections = 200
	// LogFileName is the server log, inside the data directory.
	LogFileName = "logfile"
	// ConfFileName holds the settings pgcluster manages, inside the data
	// directory; it is rewritten on every Start.
	ConfFileName = "pgcluster.conf"

	includeLine  = "include_if_exists = '" + ConfFileName + "'"
	superuser    = "postgres"
	systemUser   = "postgres"
	startTimeout = 60 // seconds, for pg_ctl -t
	logTailBytes = 4096
)

// BinDir finds the directory holding initdb and pg_ctl: PATH first, else the
// highest /usr/lib/postgresql/<version>/bin. A PATH entry that is a symlink
// (e.g. /usr/local/bin/pg_ctl) is resolved to the real directory when that
// directory holds both programs too.
func BinDir() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		dir := filepath.Dir(p)
		if isExecutable(filepath.Join(dir, "initdb")) {
			if real, err := filepath.EvalSymlinks(p); err == nil {
				rdir := filepath.Dir(real)
				if isExecutable(filepath.Join(rdir, "initdb")) && isExecutable(filepath.Join(rdir, "pg_ctl")) {
					dir = rdir
				}
			}
			if abs, err := filepath.Abs(dir); err == nil {
				dir = abs
			}
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		return versionLess(filepath.Base(filepath.Dir(dirs[j])), filepath.Base(filepath.Dir(dirs[i])))
	})
	for _, dir := range dirs {
		if isExecutable(filepath.Join(dir, "initdb")) && isExecutable(filepath.Join(dir, "pg_ctl")) {
			return dir, nil
		}
	}
	return "", errors.New("pgcluster: PostgreSQL binaries not found: neither initdb and pg_ctl on PATH nor /usr/lib/postgresql/<version>/bin (install postgresql, e.g. apt-get install postgresql)")
}

// versionLess compares dotted version strings numerically ("9.6" < "15").
func versionLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x < y
		}
	}
	return a < b
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// Options configure Start.
type Options struct {
	// Dir is the data directory. It is created (with its parents) when
	// missing; a directory without a cluster must be empty.
	Dir string
	// Port is the TCP port on 127.0.0.1. 0 picks a free one, preferring the
	// port of the previous start of the same Dir when it is still free.
	Port int
	// Fast turns durability off (fsync, synchronous_commit and
	// full_page_writes off; initdb --no-sync): for throwaway test clusters.
	Fast bool
	// Log, when set, receives progress lines (initdb, start, stop). The
	// server's own output always goes to LogFileName in Dir.
	Log io.Writer
	// MaxConnections is max_connections; values below
	// DefaultMaxConnections are raised to it.
	MaxConnections int
}

// Cluster is a started PostgreSQL server.
type Cluster struct {
	Dir  string // absolute data directory
	Port int    // TCP port on 127.0.0.1

	bin     string
	runuser string // path of runuser when commands run as postgres, else ""
	log     io.Writer

	mu      sync.Mutex
	pid     int // postmaster pid this Cluster started
	stopped bool
}

// Start creates the cluster if Dir holds none (initdb -U postgres
// --auth=trust -E UTF8 --locale=C.UTF-8, or --locale=C where C.UTF-8 is
// unavailable), then starts it listening only on 127.0.0.1:Port and waits
// until it accepts connections. A server still running on Dir (an earlier run
// that crashed or was killed without stopping it) is stopped first (fast
// shutdown), so the data of earlier runs is reused.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	if o.Dir == "" {
		return nil, errors.New("pgcluster: Options.Dir is empty")
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("pgcluster: data directory %q: %w", o.Dir, err)
	}
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, bin: bin, log: o.Log}
	var owner *sysUser
	if os.Geteuid() == 0 {
		if c.runuser, err = exec.LookPath("runuser"); err != nil {
			return nil, fmt.Errorf("pgcluster: running as root needs runuser (util-linux) to run PostgreSQL as the %s user: %w", systemUser, err)
		}
		if owner, err = lookupSysUser(systemUser); err != nil {
			return nil, fmt.Errorf("pgcluster: running as root needs the %s system user (created by the postgresql package): %w", systemUser, err)
		}
	}

	exists, err := c.prepareDir(owner)
	if err != nil {
		return nil, err
	}
	if !exists {
		if err := c.initdb(ctx, o.Fast); err != nil {
			return nil, err
		}
	}
	if err := c.ensureInclude(); err != nil {
		return nil, err
	}
	if running, _ := c.running(ctx); running {
		c.logf("pgcluster: a server is still running on %s (earlier run not stopped); stopping it", dir)
		if err := c.pgCtlStop(ctx); err != nil {
			return nil, fmt.Errorf("pgcluster: stopping the server left running on %s: %w", dir, err)
		}
	}

	maxConns := max(o.MaxConnections, DefaultMaxConnections)
	begin := time.Now()
	const attempts = 5
	for attempt := 1; ; attempt++ {
		port := o.Port
		if port == 0 {
			if port, err = c.pickPort(attempt == 1); err != nil {
				return nil, err
			}
		}
		if err := c.writeConf(owner, port, maxConns, o.Fast); err != nil {
			return nil, err
		}
		err = c.pgCtlStart(ctx)
		if err == nil {
			c.Port = port
			break
		}
		var se *startError
		if !errors.As(err, &se) || attempt == attempts || ctx.Err() != nil {
			return nil, err
		}
		switch {
		case o.Port == 0 && (strings.Contains(se.logTail, "could not bind") || strings.Contains(se.logTail, "Address already in use")):
			c.logf("pgcluster: port %d taken meanwhile, retrying on another", port)
		case strings.Contains(se.logTail, "pre-existing shared memory block") || strings.Contains(se.logTail, "lock file") && strings.Contains(se.logTail, "already exists"):
			// The processes of a killed server are still exiting.
			c.logf("pgcluster: leftovers of an earlier server are still exiting, retrying")
			select {
			case <-ctx.Done():
				return nil, err
			case <-time.After(time.Duration(attempt) * 500 * time.Millisecond):
			}
		default:
			return nil, err
		}
	}
	c.pid = c.postmasterPID()
	if err := c.waitReady(ctx); err != nil {
		_ = c.Stop()
		return nil, err
	}
	c.logf("pgcluster: server on 127.0.0.1:%d (data %s) ready in %s", c.Port, dir, time.Since(begin).Round(time.Millisecond))
	return c, nil
}

// URL returns a connection URL for the superuser postgres to the named
// database (sslmode=disable).
func (c *Cluster) URL(dbname string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User(superuser),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(c.Port)),
		Path:     "/" + dbname,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// LogFile returns the path of the server log.
func (c *Cluster) LogFile() string { return filepath.Join(c.Dir, LogFileName) }

// Stop stops the server (pg_ctl stop -m fast). It is idempotent, and does
// nothing when the server running on Dir is no longer the one this Cluster
// started (a later Start on the same Dir replaced it).
func (c *Cluster) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	if pid := c.postmasterPID(); pid == 0 || (c.pid != 0 && pid != c.pid) {
		c.stopped = true
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*startTimeout*time.Second)
	defer cancel()
	if err := c.pgCtlStop(ctx); err != nil {
		return fmt.Errorf("pgcluster: stopping the server on %s: %w", c.Dir, err)
	}
	c.stopped = true
	c.logf("pgcluster: server on 127.0.0.1:%d stopped", c.Port)
	return nil
}

// Watchdog starts a small detached process (/bin/sh, in its own process
// group so that a terminal's Ctrl-C does not reach it) that watches this
// process: when this process exits without calling release — a test binary
// that panicked, hit its -timeout or was killed — it stops the server
// (pg_ctl stop; -m immediate when paths are given, since their data is then
// thrown away, else -m fast) and removes paths. release tells the watchdog to
// exit without doing anything; it is idempotent. Call it after Stop and the
// removal of paths have been done normally.
func (c *Cluster) Watchdog(paths ...string) (release func(), err error) {
	mode := "fast"
	if len(paths) > 0 {
		mode = "immediate"
	}
	stop := c.command(context.Background(), "pg_ctl", "stop", "-m", mode, "-w", "-t", strconv.Itoa(startTimeout), "-D", c.Dir)
	script := `IFS= read -r line; [ "$line" = done ] && exit 0; ` + shellJoin(stop.Args) + ` >/dev/null 2>&1`
	if len(paths) > 0 {
		script += `; rm -rf -- ` + shellJoin(paths)
	}
	cmd := exec.Command("/bin/sh", "-c", script+"; exit 0")
	cmd.Dir = "/"
	cmd.Env = stop.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("pgcluster: watchdog: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("pgcluster: starting the watchdog: %w", err)
	}
	go func() { _ = cmd.Wait() }()
	var once sync.Once
	return func() {
		once.Do(func() {
			_, _ = io.WriteString(w, "done\n")
			_ = w.Close()
		})
	}, nil
}

// shellJoin quotes args for /bin/sh.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// prepareDir creates the data directory (owned by postgres when running as
// root), makes its parents traversable, and tells whether it already holds a
// cluster.
func (c *Cluster) prepareDir(owner *sysUser) (exists bool, err error) {
	if err := os.MkdirAll(filepath.Dir(c.Dir), 0o755); err != nil {
		return false, fmt.Errorf("pgcluster: creating the parent of %s: %w", c.Dir, err)
	}
	if err := os.Mkdir(c.Dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return false, fmt.Errorf("pgcluster: creating %s: %w", c.Dir, err)
	}
	fi, err := os.Stat(c.Dir)
	if err != nil {
		return false, fmt.Errorf("pgcluster: %w", err)
	}
	if !fi.IsDir() {
		return false, fmt.Errorf("pgcluster: %s is not a directory", c.Dir)
	}
	_, err = os.Stat(filepath.Join(c.Dir, "PG_VERSION"))
	exists = err == nil
	if !exists {
		entries, err := os.ReadDir(c.Dir)
		if err != nil {
			return false, fmt.Errorf("pgcluster: %w", err)
		}
		if len(entries) > 0 {
			return false, fmt.Errorf("pgcluster: %s holds no PostgreSQL cluster (no PG_VERSION) but is not empty; remove it or choose another directory", c.Dir)
		}
	}
	if owner == nil {
		return exists, nil
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != owner.uid {
		if exists {
			err = chownTree(c.Dir, owner)
		} else {
			err = os.Chown(c.Dir, owner.uid, owner.gid)
		}
		if err != nil {
			return false, fmt.Errorf("pgcluster: giving %s to the %s user: %w", c.Dir, systemUser, err)
		}
	}
	return exists, c.makeTraversable(owner)
}

// makeTraversable adds o+x to every parent of the data directory that the
// postgres user could not otherwise enter (e.g. a 0700 temp dir of root).
func (c *Cluster) makeTraversable(owner *sysUser) error {
	for d := filepath.Dir(c.Dir); ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("pgcluster: %w", err)
		}
		perm := fi.Mode().Perm()
		ok := perm&0o001 != 0
		if st, isStat := fi.Sys().(*syscall.Stat_t); isStat && !ok {
			ok = (int(st.Uid) == owner.uid && perm&0o100 != 0) || (owner.inGroup(int(st.Gid)) && perm&0o010 != 0)
		}
		if !ok {
			if err := os.Chmod(d, fi.Mode()&(os.ModePerm|os.ModeSticky|os.ModeSetgid|os.ModeSetuid)|0o001); err != nil {
				return fmt.Errorf("pgcluster: making %s traversable for the %s user: %w", d, systemUser, err)
			}
			c.logf("pgcluster: added o+x to %s so that the %s user can reach the data directory", d, systemUser)
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

func (c *Cluster) initdb(ctx context.Context, fast bool) error {
	begin := time.Now()
	run := func(locale string) ([]byte, error) {
		args := []string{"-D", c.Dir, "-U", superuser, "--auth=trust", "-E", "UTF8", "--locale=" + locale}
		if fast {
			args = append(args, "--no-sync")
		}
		// On failure initdb empties the directory again, so a retry can run.
		return c.command(ctx, "initdb", args...).CombinedOutput()
	}
	locale := "C.UTF-8"
	out, err := run(locale)
	if err != nil && ctx.Err() == nil {
		// Systems without the C.UTF-8 locale.
		var out2 []byte
		locale = "C"
		if out2, err = run(locale); err != nil {
			return fmt.Errorf("pgcluster: initdb %s: %w\n--- with --locale=C.UTF-8:\n%s\n--- with --locale=C:\n%s", c.Dir, err, tail(out), tail(out2))
		}
	}
	if err != nil {
		return fmt.Errorf("pgcluster: initdb %s: %w\n%s", c.Dir, err, tail(out))
	}
	c.logf("pgcluster: initdb %s (locale %s) in %s", c.Dir, locale, time.Since(begin).Round(time.Millisecond))
	return nil
}

// ensureInclude makes postgresql.conf include pgcluster.conf (last, so that
// its settings win).
func (c *Cluster) ensureInclude() error {
	p := filepath.Join(c.Dir, "postgresql.conf")
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == includeLine {
			return nil
		}
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	_, err = fmt.Fprintf(f, "\n# Settings managed by pgcluster, rewritten on every start.\n%s\n", includeLine)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	return nil
}

var portRe = regexp.MustCompile(`(?m)^port = (\d+)$`)

// pickPort returns a free port on 127.0.0.1, preferring (when preferPrevious)
// the port of the previous start of this data directory so that URLs stay
// the same across `make run`s.
func (c *Cluster) pickPort(preferPrevious bool) (int, error) {
	if preferPrevious {
		if b, err := os.ReadFile(filepath.Join(c.Dir, ConfFileName)); err == nil {
			if m := portRe.FindSubmatch(b); m != nil {
				if p, _ := strconv.Atoi(string(m[1])); p > 0 && portFree(p) {
					return p, nil
				}
			}
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgcluster: finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func portFree(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

func (c *Cluster) writeConf(owner *sysUser, port, maxConns int, fast bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by pgcluster on every start: do not edit.\n")
	fmt.Fprintf(&b, "listen_addresses = '127.0.0.1'\n")
	fmt.Fprintf(&b, "port = %d\n", port)
	fmt.Fprintf(&b, "unix_socket_directories = ''\n")
	fmt.Fprintf(&b, "max_connections = %d\n", maxConns)
	if fast {
		fmt.Fprintf(&b, "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n")
	}
	p := filepath.Join(c.Dir, ConfFileName)
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	if owner != nil {
		if err := os.Chown(p, owner.uid, owner.gid); err != nil {
			return fmt.Errorf("pgcluster: %w", err)
		}
	}
	return nil
}

// startError is a failed pg_ctl start, with what the server logged.
type startError struct {
	err     error
	output  string
	logTail string
}

func (e *startError) Error() string {
	return fmt.Sprintf("%v\n--- pg_ctl:\n%s\n--- server log (tail):\n%s", e.err, e.output, e.logTail)
}

func (e *startError) Unwrap() error { return e.err }

func (c *Cluster) pgCtlStart(ctx context.Context) error {
	logPath := c.LogFile()
	var offset int64
	if fi, err := os.Stat(logPath); err == nil {
		offset = fi.Size()
	}
	out, err := c.command(ctx, "pg_ctl", "start", "-w", "-t", strconv.Itoa(startTimeout), "-D", c.Dir, "-l", logPath).CombinedOutput()
	if err == nil {
		return nil
	}
	// Don't leave a half-started server behind.
	if running, _ := c.running(context.Background()); running {
		_ = c.pgCtlStop(context.Background())
	}
	return &startError{
		err:     fmt.Errorf("pgcluster: starting the server on %s (log %s): %w", c.Dir, logPath, err),
		output:  strings.TrimSpace(string(out)),
		logTail: readTail(logPath, offset),
	}
}

func (c *Cluster) pgCtlStop(ctx context.Context) error {
	out, err := c.command(ctx, "pg_ctl", "stop", "-m", "fast", "-w", "-t", strconv.Itoa(startTimeout), "-D", c.Dir).CombinedOutput()
	if err == nil {
		return nil
	}
	if running, serr := c.running(ctx); serr == nil && !running {
		return nil // it was not running (anymore)
	}
	return fmt.Errorf("pg_ctl stop: %w: %s", err, strings.TrimSpace(string(out)))
}

// running tells whether a server is running on the data directory (pg_ctl
// status: 0 running, 3 not running, 4 no data directory).
func (c *Cluster) running(ctx context.Context) (bool, error) {
	err := c.command(ctx, "pg_ctl", "status", "-D", c.Dir).Run()
	if err == nil {
		return true, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && (ee.ExitCode() == 3 || ee.ExitCode() == 4) {
		return false, nil
	}
	return false, err
}

// postmasterPID reads the pid of the running postmaster from postmaster.pid
// (0 when there is none).
func (c *Cluster) postmasterPID() int {
	f, err := os.Open(filepath.Join(c.Dir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	if !s.Scan() {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(s.Text()))
	return pid
}

// waitReady waits until the server answers a query.
func (c *Cluster) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var last error
	for {
		conn, err := pgx.Connect(ctx, c.URL("postgres"))
		if err == nil {
			var one int
			err = conn.QueryRow(ctx, "select 1").Scan(&one)
			_ = conn.Close(context.Background())
			if err == nil {
				return nil
			}
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("pgcluster: server on 127.0.0.1:%d does not accept connections: %w\n--- server log (tail):\n%s", c.Port, last, readTail(c.LogFile(), 0))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// command runs a PostgreSQL program, as the postgres user when root.
func (c *Cluster) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	prog := filepath.Join(c.bin, name)
	var cmd *exec.Cmd
	if c.runuser != "" {
		cmd = exec.CommandContext(ctx, c.runuser, append([]string{"-u", systemUser, "--", prog}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, prog, args...)
	}
	cmd.Dir = "/" // the postgres user may not be able to enter our working directory
	cmd.Env = cleanEnv()
	// runuser forwards SIGTERM to its child; SIGKILL would orphan it.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// cleanEnv drops the libpq/server variables (PGDATA, PGPORT, ...) that could
// redirect the commands, and pins a locale-independent message language.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PG") || strings.HasPrefix(kv, "LC_") || strings.HasPrefix(kv, "LANG=") || strings.HasPrefix(kv, "LANGUAGE=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C")
}

func (c *Cluster) logf(format string, args ...any) {
	if c.log != nil {
		fmt.Fprintf(c.log, format+"\n", args...)
	}
}

// readTail returns the last logTailBytes of the file from offset on.
func readTail(path string, offset int64) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("(cannot read %s: %v)", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size()-offset > logTailBytes {
		offset = fi.Size() - logTailBytes
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return err.Error()
	}
	b, _ := io.ReadAll(f)
	return strings.TrimSpace(string(b))
}

func tail(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > logTailBytes {
		b = b[len(b)-logTailBytes:]
	}
	return string(b)
}

type sysUser struct {
	uid, gid int
	groups   []int
}

func (u *sysUser) inGroup(gid int) bool {
	for _, g := range u.groups {
		if g == gid {
			return true
		}
	}
	return false
}

func lookupSysUser(name string) (*sysUser, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, err
	}
	su := &sysUser{}
	if su.uid, err = strconv.Atoi(u.Uid); err != nil {
		return nil, err
	}
	if su.gid, err = strconv.Atoi(u.Gid); err != nil {
		return nil, err
	}
	su.groups = []int{su.gid}
	if ids, err := u.GroupIds(); err == nil {
		for _, id := range ids {
			if g, err := strconv.Atoi(id); err == nil {
				su.groups = append(su.groups, g)
			}
		}
	}
	return su, nil
}

func chownTree(root string, owner *sysUser) error {
	return filepath.WalkDir(root, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, owner.uid, owner.gid)
	})
}
