import { expect, test } from 'vitest'
import { isPrivateAddress } from './isPrivateAddress.ts'

test('default: IPv4 private, loopback, link-local, CGNAT and reserved ranges', () => {
  for (const ip of [
    '0.0.0.0',
    '10.1.2.3',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '100.127.255.255',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
  ]) {
    expect([ip, isPrivateAddress(ip)]).toEqual([ip, true])
  }
  for (const ip of [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '100.63.255.255',
    '93.184.216.34',
  ]) {
    expect([ip, isPrivateAddress(ip)]).toEqual([ip, false])
  }
})

test('behavior: IPv6 loopback, link-local, unique-local, multicast', () => {
  for (const ip of [
    '::',
    '::1',
    '[::1]',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '2001:db8::1',
  ]) {
    expect([ip, isPrivateAddress(ip)]).toEqual([ip, true])
  }
  for (const ip of ['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450::1']) {
    expect([ip, isPrivateAddress(ip)]).toEqual([ip, false])
  }
})

test('behavior: IPv6 forms that embed an IPv4 address are judged by it', () => {
  for (const ip of [
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::10.0.0.1',
    '2002:c0a8:0101::1',
    '0:0:0:0:0:ffff:192.168.0.1',
    '::ffff:0:7f00:1',
    '::ffff:0:10.0.0.1',
    '64:ff9b:1::7f00:1',
    '64:ff9b:1:2::8.8.8.8',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    '2001::1',
    '2001:1ff::1',
    '192.88.99.1',
  ]) {
    expect([ip, isPrivateAddress(ip)]).toEqual([ip, true])
  }
  for (const ip of [
    '::ffff:8.8.8.8',
    '::ffff:0:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
    '2001:200::1',
    '192.88.98.1',
  ]) {
    expect([ip, isPrivateAddress(ip)]).toEqual([ip, false])
  }
})

test('error: what is not an IP address counts as private', () => {
  for (const text of ['localhost', 'example.com', '', '1.2.3', '::g', '1:2:3:4:5:6:7:8:9']) {
    expect([text, isPrivateAddress(text)]).toEqual([text, true])
  }
})
