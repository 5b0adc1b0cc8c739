import { isPlaceholder } from './placeholder.util';

describe('isPlaceholder: brackets', () => {
  it.each([
    '<token>',
    '{password}',
    '[REDACTED]',
    '(hidden)',
    '#{ENV["DB_PASSWORD"]}',
    '%{gitea_token}',
    '${{ secrets.DB_PASSWORD }}',
    'getpass()',
    'getpass.getpass("Password: ")',
    'os.environ["DB_PASSWORD"]',
    'request.form[',
    'tokenizer.encode(text',
    'Hash::make($password)',
    '(user) => user.password',
  ])('%s is a slot or code', (v) => expect(isPlaceholder(v)).toBe(true));

  // A generator's symbol set has brackets: inside a drawn value they are symbols, not marks.
  it.each(['Kq7}xR2!mWv9)aLp', 'O1H[}yY!aUVGmHuN', 'l<r5N4B6#E>oaMDz', 'zT4]pQ(8wXc{mN2b'])(
    '%s is a value',
    (v) => expect(isPlaceholder(v)).toBe(false),
  );
});
