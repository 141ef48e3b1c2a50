import { describe, expect, it } from 'vitest';
import { type Channel, createHttpApi, type HttpRequest } from '../../../src/runtime/index.js';

const vault: Channel = {
  name: 'vault',
  streams: false,
  routes: [
    {
      method: 'GET',
      path: '/vault/{sender}',
      authenticated: true,
      handle: async (request) => ({ status: 200, body: { opened: request.params.sender } }),
    },
  ],
};

const get = (path: string, headers: Record<string, string> = {}): HttpRequest => ({
  method: 'GET',
  path,
  headers,
});

describe("Rasa's token query parameter", () => {
  const api = () => createHttpApi([vault], { authToken: async () => 's3cret+/=' });

  it('opens an authenticated route as the bearer token does', async () => {
    expect(await api().handle(get('/vault/ada?token=s3cret%2B%2F%3D'))).toEqual({
      status: 200,
      body: { opened: 'ada' },
    });
    expect((await api().handle(get('/vault/ada?limit=3&token=s3cret%2B%2F%3D'))).status).toBe(200);
  });

  it('refuses a wrong, empty or partial token in the query, whatever the header says', async () => {
    for (const query of ['token=s3cret', 'token=', 'token', 'tokens=s3cret%2B%2F%3D', '']) {
      const answer = await api().handle(get(`/vault/ada?${query}`));
      expect(answer).toEqual({ status: 401, body: { error: 'missing or wrong bearer token' } });
    }
    const wrongHeader = get('/vault/ada?token=s3cret%2B%2F%3D', { authorization: 'Bearer no' });
    expect((await api().handle(wrongHeader)).status).toBe(200);
  });

  it('reads the first token of the query, as Rasa does', async () => {
    expect((await api().handle(get('/vault/ada?token=nope&token=s3cret%2B%2F%3D'))).status).toBe(
      401,
    );
  });

  it('is not needed where no token is configured', async () => {
    const open = createHttpApi([vault]);
    expect((await open.handle(get('/vault/ada?token=anything'))).status).toBe(200);
  });
});
