package web

// Where the view listens and how it says so: 0.0.0.0 listens on IPv4 and prints an
// address a browser can use (never [::] or 0.0.0.0), with a warning that without TLS
// the token and keys cross the network in clear; with a certificate and key (made here,
// self-signed) the view serves HTTPS and its WebSocket over TLS, and a page opens with
// its token.

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListenEverywhereWarnsAndPrintsAUsableURL(t *testing.T) {
	r := newRig(t, Options{Listen: "0.0.0.0:0"}, "alice")
	u, err := url.Parse(r.srv.URL())
	require.NoError(t, err)
	host, port, err := net.SplitHostPort(u.Host)
	require.NoError(t, err)
	ip := net.ParseIP(host)
	require.NotNil(t, ip, "the URL names an address: %s", u)
	assert.False(t, ip.IsUnspecified(), "the URL names no usable address: %s", u)
	assert.NotNil(t, ip.To4(), "0.0.0.0 is IPv4: %s", u)
	assert.Equal(t, "0.0.0.0:"+port, r.srv.Addr())
	w := r.srv.Warning()
	assert.Contains(t, w, "in clear")
	assert.Contains(t, w, "--tls-cert")
	assert.Contains(t, w, "ssh -L "+port+":127.0.0.1:"+port)

	// The printed address works.
	resp, err := http.Get("http://" + u.Host + "/")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	lo := newRig(t, Options{}, "bob")
	assert.Empty(t, lo.srv.Warning(), "loopback needs no warning")
}

// selfSigned writes a certificate for 127.0.0.1 and its key into dir.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "agentmux test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	kb, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	require.NoError(t, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600))
	c, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool = x509.NewCertPool()
	pool.AddCert(c)
	return certFile, keyFile, pool
}

func TestTLS(t *testing.T) {
	cert, key, pool := selfSigned(t, t.TempDir())
	r := newRig(t, Options{TLSCert: cert, TLSKey: key}, "alice")
	require.True(t, strings.HasPrefix(r.srv.URL(), "https://127.0.0.1:"), r.srv.URL())
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Get("https://" + r.srv.Addr() + "/")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	// Plain HTTP gets no page.
	plain := &http.Client{Timeout: 10 * time.Second}
	if resp, err := plain.Get("http://" + r.srv.Addr() + "/"); err == nil {
		resp.Body.Close()
		assert.NotEqual(t, http.StatusOK, resp.StatusCode)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "wss://"+r.srv.Addr()+"/ws", &websocket.DialOptions{HTTPClient: client,
		HTTPHeader: http.Header{"Origin": {"https://" + r.srv.Addr()}}})
	require.NoError(t, err)
	defer conn.CloseNow()
	require.NoError(t, conn.Write(ctx, websocket.MessageText, []byte(`{"t":"auth","token":"`+r.token()+`"}`)))
	frameOf(t, conn, "members")

	// An http:// Origin is not this page's.
	_, resp, err = websocket.Dial(ctx, "wss://"+r.srv.Addr()+"/ws", &websocket.DialOptions{HTTPClient: client,
		HTTPHeader: http.Header{"Origin": {"http://" + r.srv.Addr()}}})
	require.Error(t, err)
	require.NotNil(t, resp)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	_, err = Start(context.Background(), r.sess, Options{TLSCert: cert})
	assert.ErrorContains(t, err, "both")
	_, err = Start(context.Background(), r.sess, Options{TLSCert: key, TLSKey: cert})
	assert.Error(t, err, "a certificate and key swapped")
}
