package mesh_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentmux/agentmux/mesh"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns their paths.
func selfSigned(t *testing.T) (cert, key string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "agentmux test hub"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	require.NoError(t, err)
	kb, err := x509.MarshalECPrivateKey(k)
	require.NoError(t, err)
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	require.NoError(t, os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	require.NoError(t, os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600))
	return cert, key
}

// A hub with TLS takes sessions that trust its certificate, and no other.
func TestTLSHub(t *testing.T) {
	cert, key := selfSigned(t)
	dir := filepath.Join(t.TempDir(), "mesh")
	h, err := mesh.Serve(mesh.HubConfig{Dir: dir, Listen: "127.0.0.1:0", TLSCert: cert, TLSKey: key})
	require.NoError(t, err)
	defer h.Close()
	assert.True(t, h.TLS())
	creds, err := mesh.WriteCreds(dir, "laptop")
	require.NoError(t, err)
	st := openStore(t)
	_, err = mesh.Dial(mesh.Options{URL: h.URL(), Session: "laptop", CredsFile: creds, Store: st, Timeout: 5 * time.Second})
	require.Error(t, err, "a certificate nobody vouches for is refused")
	n, err := mesh.Join(mesh.Options{URL: h.URL(), Session: "laptop", CredsFile: creds, CAFile: cert, Store: st,
		Core: &sinkCore{got: make(chan string, 1)}, Timeout: 5 * time.Second})
	require.NoError(t, err)
	n.Close()
	_, err = mesh.Serve(mesh.HubConfig{Dir: dir, Listen: "127.0.0.1:0", TLSCert: cert})
	assert.ErrorContains(t, err, "key")
}
