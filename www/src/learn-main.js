// The walkthrough page (learn.html): one walkthrough bound to the URL.
import { mountLearn } from './learn.js';

mountLearn(document.getElementById('learn'));
